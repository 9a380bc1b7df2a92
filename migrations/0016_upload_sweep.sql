ALTER TABLE `uploads` ADD `swept_at` integer;--> statement-breakpoint
CREATE INDEX `uploads_sweep_idx` ON `uploads` (`status`,`swept_at`,`expires_at`);--> statement-breakpoint
CREATE INDEX `objects_r2_key_idx` ON `objects` (`r2_key`);