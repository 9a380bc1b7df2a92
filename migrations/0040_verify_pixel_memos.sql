-- #19: the verification pixel stage's outputs measured at publication on the exact bytes the service signed
-- (src/verifications/pixel-memo.ts). Keyed by the SHA-256 of the active manifest's claim signature (COSE_Sign1) the
-- service wrote; `pixels_sha256` is the digest of the file's bytes outside its APP11 segments, `version` the pixel
-- stage's version (pixel-facts.ts PIXEL_FACTS_VERSION), `facts` its outputs (JSON), `measured_at` when (ms).
CREATE TABLE `verify_pixel_memos` (
	`signature_sha256` text PRIMARY KEY NOT NULL,
	`publication_id` text NOT NULL,
	`media_type` text NOT NULL,
	`pixels_sha256` text NOT NULL,
	`version` integer NOT NULL,
	`facts` text NOT NULL,
	`measured_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `verify_pixel_memos_publication_idx` ON `verify_pixel_memos` (`publication_id`);
--> statement-breakpoint
-- A publication's soft bindings go when it is deleted (governance deletion, the derived-index reconciler): its memo
-- (hashes of its pixels) goes with them, whichever path removed them.
CREATE TRIGGER verify_pixel_memos_unpublished AFTER DELETE ON soft_bindings
BEGIN
  DELETE FROM verify_pixel_memos WHERE publication_id = OLD.publication_id;
END;
