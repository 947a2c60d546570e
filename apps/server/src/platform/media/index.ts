// Public face of the media part of the platform: the deterministic product drawings (svg.ts) and the
// raster pictures drawn from them (pictures.ts; the demo market's listings point at these, and
// image verification serves and measures them).
export {
  demoPictureKind,
  isPictureFile,
  PICTURE_KINDS,
  type PictureKind,
  pictureFileOf,
  pictureUrl,
  type RenderedPicture,
  renderPicture,
} from './pictures.js';
export { MEDIA_KEY, parseMediaKey, renderProductSvg } from './svg.js';
