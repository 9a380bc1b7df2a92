-- #19: a verification's related publications read their state (published, when) by publication_id
-- (verifications: publishedAtOf): by this index rather than a scan of every asset of every tenant.
CREATE INDEX `assets_publication_idx` ON `assets` (`publication_id`);