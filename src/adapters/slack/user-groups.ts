/**
 * Members of the approver user groups, read through `usergroups.users.list` and kept for at
 * most a minute: a person removed from @sre-leads stops being an approver within that minute,
 * and a burst of clicks costs one call per group. A group that cannot be read counts as empty
 * (unknown never passes): the click is refused as "not an approver", and the failure is logged.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../log.js';

const TTL_MS = 60_000;

export interface GroupMembers {
  /** The union of the members of `groups`. */
  members(groups: readonly string[]): Promise<Set<string>>;
}

export class SlackGroupMembers implements GroupMembers {
  private readonly cache = new Map<string, { at: number; users: readonly string[] }>();

  constructor(
    private readonly client: WebClient,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async members(groups: readonly string[]): Promise<Set<string>> {
    const lists = await Promise.all(groups.map((g) => this.group(g)));
    return new Set(lists.flat());
  }

  private async group(id: string): Promise<readonly string[]> {
    const hit = this.cache.get(id);
    if (hit !== undefined && this.now() - hit.at < TTL_MS) return hit.users;
    try {
      const result = await this.client.usergroups.users.list({ usergroup: id });
      const users = result.users ?? [];
      this.cache.set(id, { at: this.now(), users });
      return users;
    } catch (error) {
      this.logger.warn(
        { err: error, usergroup: id },
        'could not read an approver user group; counting it as empty',
      );
      return [];
    }
  }
}
