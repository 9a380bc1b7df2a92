ALTER TABLE `governance_exports` ADD `audited` integer DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE `governance_exports` SET `audited` = true WHERE `state` IN ('completed', 'failed', 'expired');--> statement-breakpoint
CREATE INDEX `governance_exports_unaudited_idx` ON `governance_exports` (`completed_at`) WHERE audited = 0;
