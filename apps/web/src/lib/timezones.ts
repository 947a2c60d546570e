import { DEFAULT_TIMEZONE } from '@vigia/domain';

/** The IANA zones a user or an administrator may pick (the runtime's list; a short one without it). */
export function timezones(): string[] {
  try {
    const all = Intl.supportedValuesOf('timeZone');
    return all.includes(DEFAULT_TIMEZONE) ? all : [DEFAULT_TIMEZONE, ...all];
  } catch {
    return [
      DEFAULT_TIMEZONE,
      'America/Lima',
      'America/Bogota',
      'America/Mexico_City',
      'America/Panama',
      'UTC',
    ];
  }
}
