CREATE TABLE `webhook_attempts` (
	`delivery_id` text NOT NULL,
	`attempt_number` integer NOT NULL,
	`tenant_id` text NOT NULL,
	`started_at` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`response_code` integer,
	`response_body_sha256` text,
	`outcome` text NOT NULL,
	`error` text,
	`retry_after_seconds` integer,
	`signature_count` integer NOT NULL,
	`gate_ms` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`delivery_id`, `attempt_number`)
);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`status` text NOT NULL,
	`attempt_count` integer DEFAULT 0 NOT NULL,
	`replay_count` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`lease_until` integer,
	`response_code` integer,
	`response_body_sha256` text,
	`terminal_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_endpoint_event_idx` ON `webhook_deliveries` (`endpoint_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_created_idx` ON `webhook_deliveries` (`endpoint_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_status_next_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`url` text NOT NULL,
	`event_catalog_version` text NOT NULL,
	`events` text NOT NULL,
	`max_concurrency` integer NOT NULL,
	`rate_limit_per_minute` integer NOT NULL,
	`auto_disable_after_failures` integer NOT NULL,
	`state` text NOT NULL,
	`disabled_reason` text,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`secret_ciphertext` text NOT NULL,
	`previous_secret_ciphertext` text,
	`secret_rotated_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	`retain_until` integer
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_tenant_created_idx` ON `webhook_endpoints` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`type` text NOT NULL,
	`body` text NOT NULL,
	`test` integer DEFAULT false NOT NULL,
	`target_endpoint_id` text,
	`fanned_out_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_events_fanout_idx` ON `webhook_events` (`fanned_out_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_events_tenant_created_idx` ON `webhook_events` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `assets_manifest_label_idx` ON `assets` (`manifest_label`);