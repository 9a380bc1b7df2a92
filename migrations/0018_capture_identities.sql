CREATE TABLE `capture_admission_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`capture_identity_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`created_by_key_id` text NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE INDEX `capture_admission_challenges_identity_idx` ON `capture_admission_challenges` (`tenant_id`,`capture_identity_id`,`created_at`);