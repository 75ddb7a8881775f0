/**
 * Renders its children only after the first client render: recharts measures the DOM and is left
 * out of the server render (the server and the first client render show the fallback).
 */
import { type ReactNode, useEffect, useState } from "react";

export function ClientOnly(props: { children: () => ReactNode; fallback: ReactNode }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return <>{mounted ? props.children() : props.fallback}</>;
}
