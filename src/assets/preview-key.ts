/** Longest edge of the JPEG preview rendered for an image asset. */
export const PREVIEW_MAX_EDGE = 512;

/** Where a publication's preview is cached in R2: the one spelling the preview route, retention and deletion use. */
export const previewKey = (tenantId: string, publicationId: string) => `t/${tenantId}/previews/${publicationId}/${PREVIEW_MAX_EDGE}.jpg`;
