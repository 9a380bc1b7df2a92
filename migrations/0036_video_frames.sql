CREATE TABLE `video_frames` (
	`publication_id` text NOT NULL,
	`key` integer NOT NULL,
	PRIMARY KEY(`publication_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `video_frames_key_idx` ON `video_frames` (`key`);