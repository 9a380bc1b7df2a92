CREATE TABLE `assets` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`media_type` text,
	`status` text NOT NULL,
	`filename` text,
	`source_object_id` text,
	`publication_id` text,
	`published_object_id` text,
	`sidecar_object_id` text,
	`published_job_id` text,
	`published_recipe_id` text,
	`published_at` integer,
	`manifest_label` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `assets_tenant_created_idx` ON `assets` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `job_steps` (
	`job_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`step` text NOT NULL,
	`position` integer NOT NULL,
	`state` text NOT NULL,
	`started_at` integer,
	`completed_at` integer,
	`output` text,
	`error_code` text,
	PRIMARY KEY(`job_id`, `step`)
);
--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`recipe_id` text NOT NULL,
	`recipe_version` integer NOT NULL,
	`policy_version` text NOT NULL,
	`active_plan_revision` integer NOT NULL,
	`kind` text NOT NULL,
	`mode` text NOT NULL,
	`state` text NOT NULL,
	`admitted` text NOT NULL,
	`media_inspection` text,
	`error_code` text,
	`error_message` text,
	`cancel_requested_at` integer,
	`cancel_reason` text,
	`terminal_at` integer,
	`receipt_id` text,
	`publication_id` text,
	`verification_id` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `jobs_tenant_created_idx` ON `jobs` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `jobs_tenant_asset_idx` ON `jobs` (`tenant_id`,`asset_id`);--> statement-breakpoint
CREATE TABLE `objects` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`role` text NOT NULL,
	`r2_key` text NOT NULL,
	`etag` text NOT NULL,
	`byte_length` integer NOT NULL,
	`sha256` text NOT NULL,
	`media_type` text NOT NULL,
	`filename` text,
	`inspection` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `objects_tenant_asset_idx` ON `objects` (`tenant_id`,`asset_id`);--> statement-breakpoint
CREATE TABLE `receipts` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`job_id` text NOT NULL,
	`evidence` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `receipts_tenant_created_idx` ON `receipts` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `receipts_job_uq` ON `receipts` (`job_id`);--> statement-breakpoint
CREATE TABLE `released_cursors` (
	`mac` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`object_id` text NOT NULL,
	`r2_key` text NOT NULL,
	`mode` text NOT NULL,
	`status` text NOT NULL,
	`declared_media_type` text NOT NULL,
	`byte_length` integer NOT NULL,
	`sha256` text NOT NULL,
	`filename` text,
	`multipart_upload_id` text,
	`parts` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`completed_at` integer
);
--> statement-breakpoint
CREATE INDEX `uploads_status_expires_idx` ON `uploads` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `uploads_tenant_idx` ON `uploads` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `verifications` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`subject_type` text NOT NULL,
	`overall` text NOT NULL,
	`asset_id` text,
	`job_id` text,
	`object_id` text,
	`policy_version` text,
	`source_byte_length` integer,
	`source_media_type` text,
	`validation_path` text,
	`evidence` text NOT NULL,
	`created_at` integer NOT NULL,
	`validated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `verifications_tenant_created_idx` ON `verifications` (`tenant_id`,`created_at`,`id`);