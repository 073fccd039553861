/**
 * The platform's published pay-per-use prices, in dollars: per resource an answer returns for the
 * `*_read` lines, per request for the others. The platform's own list: the simulator charges it,
 * auth prices its calls from it (PLATFORM_RATE_CARD overrides lines in auth).
 */
export const PUBLISHED_RATE_CARD = {
  posts_read: 0.005,
  users_read: 0.01,
  dm_events_read: 0.01,
  follows_read: 0.01,
  lists_read: 0.005,
  likes_read: 0.001,
  mutes_read: 0.001,
  blocks_read: 0.001,
  post_create: 0.015,
  post_create_with_url: 0.2,
  dm_interaction_create: 0.015,
  user_interaction_create: 0.015,
  interaction_delete: 0.01,
  content_manage: 0.005,
  list_create: 0.01,
  list_manage: 0.005,
  privacy_update: 0.01,
  mute_delete: 0.005,
} as const;
