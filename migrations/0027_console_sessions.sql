ALTER TABLE `api_keys` ADD `created_by_user_id` text;--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`issuer` text NOT NULL,
	`subject` text NOT NULL,
	`email_sealed` text,
	`email_data_key_id` text,
	`email_index` text,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`last_signed_in_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_issuer_subject_uq` ON `users` (`issuer`,`subject`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_index_uq` ON `users` (`email_index`);--> statement-breakpoint
CREATE INDEX `users_tenant_idx` ON `users` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `idp_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`tenant_id` text,
	`user_id` text,
	`result` text NOT NULL,
	`received_at` integer NOT NULL,
	`audited_at` integer
);
