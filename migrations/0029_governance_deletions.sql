CREATE TABLE `legal_holds` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`scope` text NOT NULL,
	`asset_id` text,
	`reason` text NOT NULL,
	`placed_by` text NOT NULL,
	`placed_at` integer NOT NULL,
	`released_by` text,
	`released_at` integer
);
--> statement-breakpoint
CREATE INDEX `legal_holds_tenant_placed_idx` ON `legal_holds` (`tenant_id`,`placed_at`,`id`);--> statement-breakpoint
CREATE INDEX `legal_holds_tenant_asset_idx` ON `legal_holds` (`tenant_id`,`asset_id`,`released_at`);--> statement-breakpoint
CREATE TABLE `governance_deletions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`scope` text NOT NULL,
	`asset_id` text,
	`target` text NOT NULL,
	`state` text NOT NULL,
	`reason_code` text,
	`legal_hold_id` text,
	`removed` text NOT NULL,
	`phase` text,
	`requested_by` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`completed_at` integer
);
--> statement-breakpoint
CREATE INDEX `governance_deletions_tenant_created_idx` ON `governance_deletions` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `governance_deletions_active_target_uq` ON `governance_deletions` (`tenant_id`,`target`) WHERE state IN ('queued', 'running');--> statement-breakpoint
CREATE TABLE `deleted_publications` (
	`publication_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`deletion_id` text NOT NULL,
	`deleted_at` integer NOT NULL
);
