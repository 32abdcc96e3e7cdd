import busboy from "busboy";
import express, { type NextFunction, type Request, type Response } from "express";
import { GatewayError, invalidParam } from "@gateway/errors";
import { jsonBody } from "./json-body.js";

/**
 * Body parsing for routes that take JSON, urlencoded or multipart forms (images). The declared
 * length is checked before reading; streamed bodies are cut off at the limit. Multipart file
 * parts are refused: media inputs are URLs only.
 */
export function formOrJson(limit: number) {
  const json = jsonBody(limit);
  const urlencoded = express.urlencoded({ limit, extended: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction): void => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) return next(new GatewayError("request_too_large", `Request body exceeds the limit of ${limit} bytes.`));
    const type = (req.headers["content-type"] ?? "application/json").toLowerCase();
    if (type.startsWith("application/x-www-form-urlencoded")) return urlencoded(req, res, next);
    if (type.startsWith("multipart/form-data")) return multipart(req, limit, next);
    if (/^application\/([a-z0-9.+-]*\+)?json\b/.test(type)) return json(req, res, next);
    next(new GatewayError("unsupported_media_type", `Unsupported Content-Type '${type.split(";")[0]}': use application/json, application/x-www-form-urlencoded or multipart/form-data.`));
  };
}

function multipart(req: Request, limit: number, next: NextFunction): void {
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: req.headers, limits: { fieldSize: limit, fields: 50, files: 0, parts: 60 } });
  } catch {
    return next(new GatewayError("invalid_request", "Malformed multipart body."));
  }
  const fields: Record<string, string> = {};
  let size = 0;
  let failed = false;
  const fail = (err: GatewayError) => {
    if (failed) return;
    failed = true;
    req.unpipe(bb);
    req.resume();
    next(err);
  };
  req.on("data", (c: Buffer) => {
    size += c.length;
    if (size > limit) fail(new GatewayError("request_too_large", `Request body exceeds the limit of ${limit} bytes.`));
  });
  bb.on("field", (name, value) => {
    fields[name] = value;
  });
  bb.on("file", (name, stream) => {
    stream.resume();
    fail(invalidParam(name, `File uploads are not accepted ('${name}'): send media as URLs.`));
  });
  bb.on("filesLimit", () => fail(new GatewayError("invalid_request", "File uploads are not accepted: send media as URLs.")));
  bb.on("error", () => fail(new GatewayError("invalid_request", "Malformed multipart body.")));
  bb.on("close", () => {
    if (failed) return;
    req.body = fields;
    next();
  });
  req.pipe(bb);
}
