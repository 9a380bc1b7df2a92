CREATE TABLE `verification_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`verification_id` text NOT NULL,
	`report_version` text NOT NULL,
	`html` text NOT NULL,
	`json` text NOT NULL,
	`html_sha256` text NOT NULL,
	`json_sha256` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `verification_reports_tenant_verification_idx` ON `verification_reports` (`tenant_id`,`verification_id`);--> statement-breakpoint
CREATE TABLE `verification_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`object_id` text NOT NULL,
	`state` text NOT NULL,
	`error_code` text,
	`error_message` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`completed_at` integer
);
--> statement-breakpoint
CREATE INDEX `verification_requests_tenant_idx` ON `verification_requests` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `verification_requests_state_idx` ON `verification_requests` (`state`,`updated_at`);--> statement-breakpoint
CREATE TABLE `verification_shares` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`verification_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`label` text,
	`expires_at` integer NOT NULL,
	`closed_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `verification_shares_token_idx` ON `verification_shares` (`token_hash`);--> statement-breakpoint
CREATE INDEX `verification_shares_tenant_verification_idx` ON `verification_shares` (`tenant_id`,`verification_id`,`created_at`);