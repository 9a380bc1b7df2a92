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
--> statement-breakpoint
-- The overview (#18) counts a tenant's rows in a time range by one column: these indexes answer it without the table.
CREATE INDEX `jobs_tenant_created_state_idx` ON `jobs` (`tenant_id`,`created_at`,`state`);--> statement-breakpoint
CREATE INDEX `verifications_tenant_created_overall_idx` ON `verifications` (`tenant_id`,`created_at`,`overall`);--> statement-breakpoint
CREATE INDEX `assets_tenant_created_kind_idx` ON `assets` (`tenant_id`,`created_at`,`kind`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_tenant_created_status_idx` ON `webhook_deliveries` (`tenant_id`,`created_at`,`status`);
--> statement-breakpoint
CREATE TABLE `overview_daily` (
	`tenant_id` text NOT NULL,
	`figure` text NOT NULL,
	`day_start` integer NOT NULL,
	`key` text NOT NULL,
	`n` integer NOT NULL,
	`computed_at` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `figure`, `day_start`, `key`)
);
--> statement-breakpoint
CREATE TABLE `overview_aggregates` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`through_day` integer NOT NULL,
	`oldest_computed_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
