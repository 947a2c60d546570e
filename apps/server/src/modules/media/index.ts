// Public face of the media feature: the deterministic product drawings (svg.ts), which the demo market's
// raster pictures (modules/demo/pictures.ts) are rendered from.

export { forgetKnownPictures, knownPicture, notePictureCached, PICTURE_CACHE_MAX_FILES } from './known.js';
export { MEDIA_KEY, parseMediaKey, renderProductSvg } from './svg.js';
