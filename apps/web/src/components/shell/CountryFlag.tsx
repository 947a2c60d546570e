import Box from '@mui/material/Box';
import type { ReactElement } from 'react';

// Flag emoji do not render on Windows nor in many Linux installs, so the markets Vigía serves get small
// drawn flags (3:2); any other country shows its code. A URL from the server is shown as an image.

const W = 18;
const H = 12;

const FLAGS: Record<string, ReactElement> = {
  CL: (
    <>
      <rect width={W} height={H} fill="#fff" />
      <rect y={H / 2} width={W} height={H / 2} fill="#d52b1e" />
      <rect width={6} height={H / 2} fill="#0039a6" />
      <circle cx={3} cy={3} r={1.2} fill="#fff" />
    </>
  ),
  PE: (
    <>
      <rect width={W} height={H} fill="#fff" />
      <rect width={6} height={H} fill="#d91023" />
      <rect x={12} width={6} height={H} fill="#d91023" />
    </>
  ),
  MX: (
    <>
      <rect width={6} height={H} fill="#006847" />
      <rect x={6} width={6} height={H} fill="#fff" />
      <rect x={12} width={6} height={H} fill="#ce1126" />
      <circle cx={9} cy={6} r={1.4} fill="#8c5a2b" />
    </>
  ),
  CO: (
    <>
      <rect width={W} height={6} fill="#fcd116" />
      <rect y={6} width={W} height={3} fill="#003893" />
      <rect y={9} width={W} height={3} fill="#ce1126" />
    </>
  ),
  EC: (
    <>
      <rect width={W} height={6} fill="#ffd100" />
      <rect y={6} width={W} height={3} fill="#034ea2" />
      <rect y={9} width={W} height={3} fill="#ed1c24" />
      <circle cx={9} cy={6} r={1.3} fill="#8c5a2b" />
    </>
  ),
  AR: (
    <>
      <rect width={W} height={H} fill="#74acdf" />
      <rect y={4} width={W} height={4} fill="#fff" />
      <circle cx={9} cy={6} r={1.3} fill="#f6b40e" />
    </>
  ),
  PA: (
    <>
      <rect width={W} height={H} fill="#fff" />
      <rect x={9} width={9} height={6} fill="#d21034" />
      <rect y={6} width={9} height={6} fill="#005293" />
      <circle cx={4.5} cy={3} r={1.1} fill="#005293" />
      <circle cx={13.5} cy={9} r={1.1} fill="#d21034" />
    </>
  ),
  UY: (
    <>
      <rect width={W} height={H} fill="#fff" />
      {[1.33, 4, 6.67, 9.33].map((y) => (
        <rect key={y} y={y} width={W} height={1.33} fill="#0038a8" />
      ))}
      <rect width={7} height={6.67} fill="#fff" />
      <circle cx={3.5} cy={3.3} r={1.6} fill="#fcd116" />
    </>
  ),
  BR: (
    <>
      <rect width={W} height={H} fill="#009c3b" />
      <path d="M9 1.5 L16.5 6 L9 10.5 L1.5 6 Z" fill="#ffdf00" />
      <circle cx={9} cy={6} r={2.4} fill="#002776" />
    </>
  ),
  US: (
    <>
      <rect width={W} height={H} fill="#fff" />
      {[0, 1.85, 3.7, 5.55, 7.4, 9.25, 11.1].map((y) => (
        <rect key={y} y={y} width={W} height={0.92} fill="#b22234" />
      ))}
      <rect width={7.5} height={6.5} fill="#3c3b6e" />
    </>
  ),
};

/** Country flag by ISO code; `flag` (from sellers-by-countries) is used when it is an image URL. */
export function CountryFlag({ code, flag, name }: { code: string; flag?: string; name: string }) {
  if (flag && /^(https?:|\/|data:)/.test(flag)) {
    return (
      <Box
        component="img"
        src={flag}
        alt={name}
        sx={{
          width: W,
          height: H,
          objectFit: 'cover',
          borderRadius: '2px',
          boxShadow: '0 0 0 1px rgba(0,0,0,.12)',
        }}
      />
    );
  }
  const drawn = FLAGS[code.toUpperCase()];
  if (!drawn) {
    return (
      <Box
        component="span"
        role="img"
        aria-label={name}
        sx={{
          fontSize: 10,
          fontWeight: 700,
          px: 0.5,
          borderRadius: '3px',
          bgcolor: 'rgba(106,27,154,.1)',
          color: 'primary.main',
        }}
      >
        {code.toUpperCase()}
      </Box>
    );
  }
  return (
    <Box
      component="svg"
      role="img"
      aria-label={name}
      viewBox={`0 0 ${W} ${H}`}
      sx={{ width: W, height: H, borderRadius: '2px', boxShadow: '0 0 0 1px rgba(0,0,0,.12)', flexShrink: 0 }}
    >
      {drawn}
    </Box>
  );
}
