export * from "./types.js";
export { openAISize } from "./openai.js";
