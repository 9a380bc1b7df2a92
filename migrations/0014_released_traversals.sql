CREATE TABLE `released_traversals` (
	`tenant_id` text NOT NULL,
	`traversal` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `traversal`)
);
--> statement-breakpoint
CREATE INDEX `released_traversals_expires_idx` ON `released_traversals` (`expires_at`);--> statement-breakpoint
DROP TABLE `released_cursors`;