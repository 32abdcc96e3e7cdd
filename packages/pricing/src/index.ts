export * from "./cost.js";
export * from "./media.js";
export * from "./sheet.js";
