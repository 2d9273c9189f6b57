/** The device type of a scan, from the browser's User-Agent. @see spec §2.7 scan.device_type */
export type DeviceType = 'mobile' | 'tablet' | 'desktop';

export function deviceType(userAgent: string | undefined): DeviceType {
  const agent = userAgent ?? '';
  if (/iPad|Tablet|PlayBook|Silk|Android(?!.*Mobile)/i.test(agent)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(agent)) return 'mobile';
  return 'desktop';
}
