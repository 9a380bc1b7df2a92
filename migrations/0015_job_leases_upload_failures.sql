ALTER TABLE `jobs` ADD `lease_expires_at` integer;--> statement-breakpoint
CREATE INDEX `jobs_state_updated_idx` ON `jobs` (`state`,`updated_at`);--> statement-breakpoint
ALTER TABLE `uploads` ADD `error_code` text;