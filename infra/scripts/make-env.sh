#!/usr/bin/env bash
# Writes .env for `docker compose` with strong random values for every secret .env.example
# lists. Refuses to overwrite an existing .env (pass --force to replace it).
set -euo pipefail
cd "$(dirname "$0")/../.."
target="${ENV_FILE:-.env}"
if [ -e "$target" ] && [ "${1:-}" != "--force" ]; then
  echo "$target exists; pass --force to replace it" >&2
  exit 1
fi
random() { node -e "process.stdout.write(require('node:crypto').randomBytes($1).toString('$2'))"; }
crm_token="crm-$(random 24 hex)"
console_token="console-$(random 24 hex)"
umask 077
cat > "$target" <<VALUES
SOCIAL_CONSUMER_KEY=$(random 12 hex)
SOCIAL_CONSUMER_SECRET=$(random 32 hex)
SOCIAL_OAUTH2_CLIENT_ID=$(random 12 hex)
SOCIAL_OAUTH2_CLIENT_SECRET=$(random 32 hex)
CREDENTIALS_KEY=$(random 32 base64)
WEBHOOK_SECRETS_KEY=$(random 32 base64)
CRM_API_TOKENS=$crm_token
CONSOLE_SERVICE_TOKEN=$console_token
CONSOLE_SESSION_SECRET=$(random 32 hex)
VALUES
echo "wrote $target (mode 600); the CRM's token is CRM_API_TOKENS"
