CREATE TABLE `api_request_logs` (
	`request_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`api_key_id` text NOT NULL,
	`method` text NOT NULL,
	`operation` text NOT NULL,
	`status` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `api_request_logs_tenant_created_idx` ON `api_request_logs` (`tenant_id`,`created_at`,`request_id`);--> statement-breakpoint
CREATE INDEX `api_request_logs_created_idx` ON `api_request_logs` (`created_at`);