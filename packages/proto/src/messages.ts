/**
 * The messages and services of proto/, typed by what @grpc/proto-loader's generator writes from them
 * (src/generated, made by gen-types.mjs with the loader's run-time options and checked by
 * `make check`). Each message has two names: `Org` is what a receiver reads (every field present,
 * int64 as number, enums as strings) and `OrgInput` what a sender may build (every field optional).
 * Units are documented in the .proto files.
 */
import type * as grpc from "@grpc/grpc-js";
import type { MethodDefinition } from "@grpc/proto-loader";
import type {
  AdminServiceDefinition,
  AdminServiceHandlers,
  ControlServiceDefinition,
  ControlServiceHandlers,
  HealthDefinition,
  HealthHandlers,
  LedgerServiceDefinition,
  LedgerServiceHandlers,
} from "./generated/index.js";

export * from "./generated/index.js";

/**
 * One method's shapes on both sides of the wire: a client sends `send` and reads `reply`; a server
 * reads `received` and answers `answer` (for a server stream, `stream` is true and `answer` is each
 * message).
 */
export interface MethodShape {
  send: unknown;
  reply: unknown;
  received: unknown;
  answer: unknown;
  stream: boolean;
}

/** The named keys of a generated interface (grpc-js gives services a string index signature as well). */
type Named<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };

/** Method name → {@link MethodShape}, read from a service's generated definition and handlers. */
export type MethodsOf<D, H> = {
  [K in Named<D> & Named<H>]: D[K] extends MethodDefinition<infer Send, infer Answer, infer Received, infer Reply>
    ? { send: Send; reply: Reply; received: Received; answer: Answer; stream: H[K] extends grpc.handleServerStreamingCall<infer _Received, infer _Answer> ? true : false }
    : never;
};

export type ControlServiceMethods = MethodsOf<ControlServiceDefinition, ControlServiceHandlers>;
export type AdminServiceMethods = MethodsOf<AdminServiceDefinition, AdminServiceHandlers>;
export type LedgerServiceMethods = MethodsOf<LedgerServiceDefinition, LedgerServiceHandlers>;
export type HealthMethods = MethodsOf<HealthDefinition, HealthHandlers>;
