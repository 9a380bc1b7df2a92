CREATE TABLE `chromaprint_frames` (
	`publication_id` text NOT NULL,
	`position` integer NOT NULL,
	`value` integer NOT NULL,
	PRIMARY KEY(`publication_id`, `position`)
);
--> statement-breakpoint
CREATE INDEX `chromaprint_frames_value_idx` ON `chromaprint_frames` (`value`);