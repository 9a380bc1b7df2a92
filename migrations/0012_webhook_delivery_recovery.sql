ALTER TABLE `webhook_deliveries` ADD `attempt_base` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_status_lease_idx` ON `webhook_deliveries` (`status`,`lease_until`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_created_idx` ON `webhook_deliveries` (`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_started_idx` ON `webhook_attempts` (`started_at`);