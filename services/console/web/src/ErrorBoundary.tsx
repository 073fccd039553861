import { Component, type ReactNode } from 'react';
import { Alert, Button, Center, Stack } from '@mantine/core';

/** A screen that fails to draw shows what happened and a way back, instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Center component="main" h="100vh">
        <Stack>
          <Alert color="red" role="alert" title="This screen failed">
            {this.state.error.message}
          </Alert>
          <Button onClick={() => window.location.reload()}>Reload</Button>
        </Stack>
      </Center>
    );
  }
}
