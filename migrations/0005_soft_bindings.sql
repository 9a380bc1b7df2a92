CREATE TABLE `soft_bindings` (
	`publication_id` text NOT NULL,
	`algorithm` text NOT NULL,
	`tenant_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`job_id` text NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`bits` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`publication_id`, `algorithm`)
);
--> statement-breakpoint
CREATE INDEX `soft_bindings_lookup_idx` ON `soft_bindings` (`algorithm`,`bits`);--> statement-breakpoint
CREATE INDEX `soft_bindings_tenant_asset_idx` ON `soft_bindings` (`tenant_id`,`asset_id`);