// Public face of the demo market for other features: its raster product pictures (pictures.ts).
export {
  isPictureFile,
  PICTURE_KINDS,
  type PictureKind,
  pictureFileOf,
  type RenderedPicture,
  renderPicture,
} from './pictures.js';
