CREATE TABLE `governance_exports` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`state` text NOT NULL,
	`requested_by_kind` text NOT NULL,
	`requested_by_id` text,
	`as_of` integer NOT NULL,
	`audit_head_seq` integer,
	`audit_head_hash` text,
	`r2_key` text NOT NULL,
	`multipart_upload_id` text,
	`manifest_upload_id` text,
	`counts` text,
	`file_count` integer,
	`byte_length` integer,
	`archive_sha256` text,
	`manifest_sha256` text,
	`signature` text,
	`error_code` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`lease_until` integer,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`completed_at` integer,
	`expires_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `governance_exports_tenant_created_idx` ON `governance_exports` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `governance_exports_state_updated_idx` ON `governance_exports` (`state`,`updated_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `governance_exports_active_uq` ON `governance_exports` (`tenant_id`) WHERE state IN ('queued', 'running');
