import Avatar from '@mui/material/Avatar';

/** The user's initials: first letters of the first two words of the name (else of the e-mail). */
export function userInitials(name: string | null | undefined, email: string | null | undefined): string {
  const words = (name?.trim() || email || '').split(/[\s@.]+/).filter(Boolean);
  return ((words[0]?.[0] ?? '') + (words[1]?.[0] ?? '')).toUpperCase() || 'V';
}

/** The user's avatar, the same initials wherever it is shown (top bar, profile). */
export function UserAvatar({
  name,
  email,
  size = 34,
}: {
  name: string | null | undefined;
  email: string | null | undefined;
  size?: number;
}) {
  return (
    <Avatar
      sx={{ width: size, height: size, bgcolor: 'secondary.main', fontSize: size * 0.4, fontWeight: 700 }}
    >
      {userInitials(name, email)}
    </Avatar>
  );
}
