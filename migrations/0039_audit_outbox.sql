CREATE TABLE `audit_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`draft` text NOT NULL,
	`created_at` integer NOT NULL,
	`claimed_until` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_outbox_created_idx` ON `audit_outbox` (`created_at`);