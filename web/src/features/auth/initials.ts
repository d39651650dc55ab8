/** Avatar initials: the first two letters of the username, or of the email when there is no username. */
export function getInitials(user: { username?: string | null; email: string }): string {
  const source = user.username?.trim() || user.email.trim();
  return source.slice(0, 2).toUpperCase();
}
