CREATE TABLE `creator_disclosure_policies` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`brand_name` text NOT NULL,
	`console_disclosure` text NOT NULL,
	`share_disclosure` text NOT NULL,
	`notice_version` text,
	`updated_at` integer NOT NULL,
	`updated_by_key_id` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `creator_identities` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`status` text NOT NULL,
	`assurance_level` text NOT NULL,
	`data_key_id` text,
	`email_lookup` text,
	`email_sealed` text,
	`name_sealed` text,
	`salt_sealed` text,
	`display_name_present` integer NOT NULL,
	`creator_ref` text NOT NULL,
	`commitment` text NOT NULL,
	`consent` text NOT NULL,
	`consent_recorded_at` integer NOT NULL,
	`consent_api_key_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`withdrawn_at` integer,
	`erased_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `creator_identities_ref_uq` ON `creator_identities` (`creator_ref`);--> statement-breakpoint
CREATE UNIQUE INDEX `creator_identities_active_email_uq` ON `creator_identities` (`tenant_id`,`email_lookup`) WHERE status = 'active';--> statement-breakpoint
CREATE INDEX `creator_identities_tenant_created_idx` ON `creator_identities` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `tenant_data_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`master_key_id` text NOT NULL,
	`wrapped` text NOT NULL,
	`created_at` integer NOT NULL,
	`rewrapped_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenant_data_keys_tenant_uq` ON `tenant_data_keys` (`tenant_id`);--> statement-breakpoint
CREATE INDEX `tenant_data_keys_master_idx` ON `tenant_data_keys` (`master_key_id`);