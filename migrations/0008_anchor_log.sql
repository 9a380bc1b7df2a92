CREATE TABLE `anchor_checkpoints` (
	`tree_size` integer PRIMARY KEY NOT NULL,
	`root_hash` text NOT NULL,
	`note` text NOT NULL,
	`sealed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `anchor_entries` (
	`publication_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`manifest_sha256` text NOT NULL,
	`leaf_hash` text NOT NULL,
	`leaf_index` integer,
	`sealed_tree_size` integer,
	`inclusion_proof` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `anchor_entries_leaf_idx` ON `anchor_entries` (`leaf_index`);--> statement-breakpoint
CREATE INDEX `anchor_entries_manifest_idx` ON `anchor_entries` (`manifest_sha256`);--> statement-breakpoint
CREATE INDEX `anchor_entries_pending_idx` ON `anchor_entries` (`leaf_index`,`created_at`);