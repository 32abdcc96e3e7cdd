/** Route kinds a model can serve and a key can be scoped to (one list, in @gateway/proto). */
export { ROUTES, isRoute, type Route } from "@gateway/proto";
