import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import 'leaflet/dist/leaflet.css';
import './contrast.css';
import { createRoot } from 'react-dom/client';
import { Badge, createTheme, MantineProvider } from '@mantine/core';

// Darker shades than Mantine's default keep white text on buttons and badges above WCAG AA contrast.
const theme = createTheme({ primaryShade: { light: 8, dark: 8 }, primaryColor: 'blue', autoContrast: true, components: { Badge: Badge.extend({ defaultProps: { variant: 'filled' } }) } });
import { App } from './App';

createRoot(document.getElementById('root')!).render(
  <MantineProvider theme={theme} defaultColorScheme="light">
    <App />
  </MantineProvider>,
);
