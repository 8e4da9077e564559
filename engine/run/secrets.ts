// Secrets are resolved once at run start so every value is known to the redactor before any
// task can print it. A secret that cannot be resolved only fails the tasks that read it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SecretDecl } from '../../core/ir.js';
import { NikaError } from '../contracts.js';
import type { Redactor } from './redact.js';

export const SECRET_UNAVAILABLE = 'NIKA-SEC-003';

export function loadSecrets(
  decls: Record<string, SecretDecl>,
  env: Record<string, string | undefined>,
  cwd: string,
  redactor: Redactor,
): Record<string, unknown> {
  const values: Record<string, string> = {};
  const problems: Record<string, string> = {};
  for (const [name, d] of Object.entries(decls)) {
    try {
      values[name] = resolveOne(name, d, env, cwd);
      redactor.add(values[name]);
    } catch (e) {
      problems[name] = (e as Error).message;
    }
  }
  return new Proxy(values, {
    get(target, prop) {
      if (typeof prop === 'string' && prop in problems) throw new NikaError(SECRET_UNAVAILABLE, problems[prop]);
      return Reflect.get(target, prop);
    },
    has(target, prop) {
      return (typeof prop === 'string' && prop in problems) || Reflect.has(target, prop);
    },
    // Readers test own-ness before reading; a declared-but-broken secret must look present so
    // the read reaches `get` and reports why it is unavailable.
    getOwnPropertyDescriptor(target, prop) {
      if (typeof prop === 'string' && prop in problems) return { configurable: true, enumerable: true, value: undefined, writable: false };
      return Reflect.getOwnPropertyDescriptor(target, prop);
    },
  });
}

function resolveOne(name: string, d: SecretDecl, env: Record<string, string | undefined>, cwd: string): string {
  switch (d.source) {
    case 'env': {
      if (!d.key) throw new Error(`secret '${name}': source env needs a key`);
      const v = env[d.key];
      if (v === undefined || v === '') throw new Error(`secret '${name}': environment variable ${d.key} is not set`);
      return v;
    }
    case 'file': {
      if (!d.path) throw new Error(`secret '${name}': source file needs a path`);
      const p = resolve(cwd, d.path);
      try {
        return readFileSync(p, 'utf8').replace(/\r?\n$/, '');
      } catch (e) {
        throw new Error(`secret '${name}': cannot read ${d.path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
    }
    case 'vault':
      throw new Error(`secret '${name}': source vault is not supported by this engine (use env or file)`);
    default:
      throw new Error(`secret '${name}': unknown source '${String(d.source)}'`);
  }
}
