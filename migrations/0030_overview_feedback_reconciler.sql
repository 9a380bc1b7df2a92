CREATE TABLE `feedback` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`data_key_id` text NOT NULL,
	`message_sealed` text NOT NULL,
	`message_length` integer NOT NULL,
	`related_asset_id` text,
	`related_job_id` text,
	`related_verification_id` text,
	`actor_kind` text NOT NULL,
	`actor_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `feedback_tenant_created_idx` ON `feedback` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `derived_index_runs` (
	`name` text PRIMARY KEY NOT NULL,
	`last_started_at` integer,
	`last_succeeded_at` integer,
	`last_failed_at` integer,
	`bindings_cursor` text DEFAULT '' NOT NULL,
	`bands_cursor` text DEFAULT '' NOT NULL,
	`last_scanned` integer DEFAULT 0 NOT NULL,
	`last_bindings_removed` integer DEFAULT 0 NOT NULL,
	`last_bands_removed` integer DEFAULT 0 NOT NULL,
	`total_removed` integer DEFAULT 0 NOT NULL,
	`passes_completed` integer DEFAULT 0 NOT NULL
);
