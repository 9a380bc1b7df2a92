CREATE TABLE `billing_accounts` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`plan_id` text NOT NULL,
	`plan_revision` integer NOT NULL,
	`status` text NOT NULL,
	`cancel_at_period_end` integer NOT NULL,
	`current_period_start` integer NOT NULL,
	`current_period_end` integer NOT NULL,
	`provider_customer_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `billing_intents` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`purpose` text NOT NULL,
	`plan_id` text,
	`amount_micros` integer,
	`mode` text NOT NULL,
	`url` text,
	`provider_session_id` text,
	`status` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `billing_intents_tenant_created_idx` ON `billing_intents` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `billing_intents_session_uq` ON `billing_intents` (`provider_session_id`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`tenant_id` text,
	`state` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `wallet_reservations` (
	`job_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`amount_micros` integer NOT NULL,
	`lines` text NOT NULL,
	`pricing_version` text NOT NULL,
	`state` text NOT NULL,
	`created_at` integer NOT NULL,
	`ended_at` integer
);
--> statement-breakpoint
CREATE INDEX `wallet_reservations_tenant_state_idx` ON `wallet_reservations` (`tenant_id`,`state`,`ended_at`,`job_id`);--> statement-breakpoint
CREATE TABLE `wallet_transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount_micros` integer NOT NULL,
	`provider_event_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `wallet_transactions_tenant_created_idx` ON `wallet_transactions` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_transactions_event_uq` ON `wallet_transactions` (`provider_event_id`);--> statement-breakpoint
CREATE TABLE `wallets` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`enabled` integer NOT NULL,
	`balance_micros` integer NOT NULL,
	`reserved_micros` integer NOT NULL,
	`spend_month` text NOT NULL,
	`month_spend_micros` integer NOT NULL,
	`monthly_spend_limit_micros` integer,
	`auto_recharge_enabled` integer NOT NULL,
	`auto_recharge_threshold_micros` integer,
	`auto_recharge_amount_micros` integer,
	`recharge_pending` integer NOT NULL,
	`version` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
