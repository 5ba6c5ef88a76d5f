/**
 * Everything that runs only while an image uploads, as one module so it loads as one chunk
 * with the first upload.
 */
export { imageKitUploader } from './imagekit.js';
export { uploadFile, uploadInPlace } from './upload-in-place.js';
export { friendlyMessage, runUpload } from './uploader.js';
