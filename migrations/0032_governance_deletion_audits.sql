ALTER TABLE `governance_deletions` ADD `audited_at` integer;--> statement-breakpoint
ALTER TABLE `governance_deletions` ADD `audit_claimed_at` integer;--> statement-breakpoint
UPDATE `governance_deletions` SET `audited_at` = `completed_at` WHERE `completed_at` IS NOT NULL;
