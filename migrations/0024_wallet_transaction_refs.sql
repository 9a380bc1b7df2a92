ALTER TABLE `wallet_transactions` ADD `intent_id` text;--> statement-breakpoint
ALTER TABLE `wallet_transactions` ADD `provider_charge_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_transactions_top_up_intent_uq` ON `wallet_transactions` (`intent_id`) WHERE kind = 'top_up';--> statement-breakpoint
CREATE INDEX `wallet_transactions_charge_idx` ON `wallet_transactions` (`provider_charge_id`);