CREATE TABLE `pdq_regions` (
	`publication_id` text NOT NULL,
	`region` integer NOT NULL,
	`b0` integer NOT NULL,
	`b1` integer NOT NULL,
	`b2` integer NOT NULL,
	`b3` integer NOT NULL,
	`b4` integer NOT NULL,
	`b5` integer NOT NULL,
	`b6` integer NOT NULL,
	`b7` integer NOT NULL,
	`b8` integer NOT NULL,
	`b9` integer NOT NULL,
	`b10` integer NOT NULL,
	`b11` integer NOT NULL,
	`b12` integer NOT NULL,
	`b13` integer NOT NULL,
	`b14` integer NOT NULL,
	`b15` integer NOT NULL,
	PRIMARY KEY(`publication_id`, `region`)
);
--> statement-breakpoint
CREATE INDEX `pdq_regions_b0_idx` ON `pdq_regions` (`b0`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b1_idx` ON `pdq_regions` (`b1`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b2_idx` ON `pdq_regions` (`b2`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b3_idx` ON `pdq_regions` (`b3`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b4_idx` ON `pdq_regions` (`b4`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b5_idx` ON `pdq_regions` (`b5`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b6_idx` ON `pdq_regions` (`b6`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b7_idx` ON `pdq_regions` (`b7`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b8_idx` ON `pdq_regions` (`b8`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b9_idx` ON `pdq_regions` (`b9`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b10_idx` ON `pdq_regions` (`b10`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b11_idx` ON `pdq_regions` (`b11`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b12_idx` ON `pdq_regions` (`b12`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b13_idx` ON `pdq_regions` (`b13`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b14_idx` ON `pdq_regions` (`b14`);--> statement-breakpoint
CREATE INDEX `pdq_regions_b15_idx` ON `pdq_regions` (`b15`);