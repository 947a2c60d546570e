// Browser storage behind one small typed API. Everything the seed keeps "in the browser" goes through
// here, under the keys below, so a reader sees the whole client-side state in one place.

/** localStorage keys (seed 000 §3, §4). */
export const STORAGE_KEYS = {
  version: 'vigia.version',
  session: 'vigia.session',
  token: 'vigia.token',
  user: 'vigia.user',
  brands: 'vigia.brands',
  sellers: 'vigia.sellers',
  userSettings: 'vigia.userSettings',
  notificationsCount: 'vigia.notificationsCount',
  navCollapsed: 'vigia.navCollapsed',
} as const;

/** sessionStorage key of a message to show after a full reload (the 403 → Home + reload path). */
export const FLASH_KEY = 'vigia.flash';

/** In-memory Storage for tests and for environments without localStorage (node, private modes). */
export class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.has(key) ? (this.items.get(key) as string) : null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
}

function browserStorage(kind: 'localStorage' | 'sessionStorage'): Storage {
  try {
    const s = (globalThis as unknown as Record<string, Storage | undefined>)[kind];
    if (s) {
      const probe = '__vigia_probe__';
      s.setItem(probe, probe);
      s.removeItem(probe);
      return s;
    }
  } catch {
    // Storage disabled (private mode, sandboxed iframe): fall back to memory.
  }
  return new MemoryStorage();
}

/** Typed JSON access to one Storage. */
export interface JsonStore {
  readonly raw: Storage;
  getString(key: string): string | null;
  setString(key: string, value: string): void;
  get<T>(key: string, fallback: T): T;
  set(key: string, value: unknown): void;
  remove(...keys: string[]): void;
}

export function createJsonStore(raw: Storage): JsonStore {
  return {
    raw,
    getString: (key) => raw.getItem(key),
    setString: (key, value) => raw.setItem(key, value),
    get<T>(key: string, fallback: T): T {
      const text = raw.getItem(key);
      if (text === null) return fallback;
      try {
        return JSON.parse(text) as T;
      } catch {
        return fallback;
      }
    },
    set: (key, value) => raw.setItem(key, JSON.stringify(value)),
    remove: (...keys) => {
      for (const k of keys) raw.removeItem(k);
    },
  };
}

let local: JsonStore | null = null;
let session: JsonStore | null = null;

/** The app's localStorage (memory when unavailable). */
export function localStore(): JsonStore {
  local ??= createJsonStore(browserStorage('localStorage'));
  return local;
}

/** The app's sessionStorage (memory when unavailable). */
export function sessionStore(): JsonStore {
  session ??= createJsonStore(browserStorage('sessionStorage'));
  return session;
}

/** Tests: replace the backing storages. */
export function setStoresForTesting(localRaw: Storage, sessionRaw: Storage = new MemoryStorage()): void {
  local = createJsonStore(localRaw);
  session = createJsonStore(sessionRaw);
}
