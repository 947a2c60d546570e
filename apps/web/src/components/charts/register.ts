import {
  BarController,
  BarElement,
  BubbleController,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';

// Chart.js is tree-shaken: each chart type registers only what it draws. Registering the same pieces
// twice is harmless, so every chart component calls this once at module load.
let registered = false;

export function registerCharts(): void {
  if (registered) return;
  Chart.register(
    CategoryScale,
    LinearScale,
    PointElement,
    LineElement,
    LineController,
    BarElement,
    BarController,
    BubbleController,
    Filler,
    Tooltip,
    Legend,
  );
  Chart.defaults.font.family = '"Inter", "Roboto", "Helvetica", "Arial", sans-serif';
  Chart.defaults.font.size = 12;
  // set the one option: replacing the whole `animation` object drops Chart.js's defaults the tooltip's
  // animation needs ("this._fn is not a function" on every hover, and no tooltip)
  if (Chart.defaults.animation) Chart.defaults.animation.duration = 250;
  registered = true;
}
