ALTER TABLE `verifications` ADD `status` text;--> statement-breakpoint
ALTER TABLE `verifications` ADD `status_vocabulary_version` text;--> statement-breakpoint
ALTER TABLE `verifications` ADD `manifest_id` text;--> statement-breakpoint
CREATE INDEX `verifications_tenant_manifest_idx` ON `verifications` (`tenant_id`,`manifest_id`,`created_at`);