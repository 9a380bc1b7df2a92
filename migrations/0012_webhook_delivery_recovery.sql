ALTER TABLE `webhook_deliveries` ADD `attempt_base` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_status_lease_idx` ON `webhook_deliveries` (`status`,`lease_until`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_updated_idx` ON `webhook_deliveries` (`updated_at`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_started_idx` ON `webhook_attempts` (`started_at`);--> statement-breakpoint
-- Deliveries replayed before attempt_base existed restart their schedule from their current count.
UPDATE `webhook_deliveries` SET `attempt_base` = `attempt_count` WHERE `status` = 'pending' AND `replay_count` > 0;
