// @taco-cpp/taco: TACO datasets in the browser and in Node >= 20 (docs/javascript.md).
export { openDataset, Dataset } from './dataset.js';
export { describeContainer, zipMembers } from './container.js';
export { HttpSource, BlobSource, RequestCounter, openSource } from './source.js';
export { prepare } from './prepare.js';
