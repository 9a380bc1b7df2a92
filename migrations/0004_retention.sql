ALTER TABLE `api_keys` ADD `retention` text;--> statement-breakpoint
ALTER TABLE `assets` ADD `retention_until` integer;--> statement-breakpoint
CREATE INDEX `assets_retention_idx` ON `assets` (`retention_until`);