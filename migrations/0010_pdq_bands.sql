CREATE TABLE `pdq_bands` (
	`publication_id` text NOT NULL,
	`band` integer NOT NULL,
	`value` integer NOT NULL,
	PRIMARY KEY(`publication_id`, `band`)
);
--> statement-breakpoint
CREATE INDEX `pdq_bands_lookup_idx` ON `pdq_bands` (`band`,`value`);