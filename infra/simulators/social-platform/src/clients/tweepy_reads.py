"""Drives the simulator's v1.1 reads with tweepy (Debian's python3-tweepy), unchanged: app-only
bearer reads of users/show and statuses/user_timeline, tweet_mode=extended, and
lists/members paged by cursor. Prints one JSON line per call: {"call", "ok", "detail"} (the
detail is what the test checks); exits 0 when every call worked, 1 otherwise.

Usage: SIMULATOR_PORT=<port> REQUESTS_CA_BUNDLE=<cert file> KEY=<consumer key> SECRET=<secret> python3 tweepy_reads.py
"""
import sys

import tweepy

from tweepy_common import KEY, SECRET, connect, failures, report

LONG = "Our help desk answers every message within the hour, " * 4 + "thanks for waiting."


def text_fields(status):
    """Which text fields a status carries, and their values."""
    raw = status._json
    return {key: raw[key] for key in ("text", "full_text", "display_text_range") if key in raw}


def pages(cursor):
    """Every page of a tweepy Cursor: the screen names on each."""
    return [[user.screen_name for user in page] for page in cursor.pages()]


def refused(call):
    """The HTTP status and platform codes of a call expected to fail."""
    try:
        call()
    except tweepy.HTTPException as error:
        return {"status": error.response.status_code, "codes": error.api_codes}
    raise AssertionError("the call was not refused")


owner = connect("@tw_reads_desk")
fan = connect("@tw_reads_fan")
posted = owner.update_status(LONG)
fan.retweet(posted.id)
app = tweepy.API(tweepy.OAuth2AppHandler(KEY, SECRET))

report("app get_user", lambda: {"screen_name": app.get_user(screen_name="tw_reads_desk").screen_name, "id_str": app.get_user(user_id=posted.user.id_str).id_str})
report("app user_timeline", lambda: [text_fields(s) for s in app.user_timeline(screen_name="tw_reads_desk")])
report("app user_timeline extended", lambda: [text_fields(s) for s in app.user_timeline(screen_name="tw_reads_desk", tweet_mode="extended")])
report("app user_timeline unnamed", lambda: refused(lambda: app.user_timeline()))
report("user home_timeline extended", lambda: [text_fields(s) for s in owner.home_timeline(tweet_mode="extended")])
report("user retweet extended", lambda: [
    {**text_fields(s), "retweeted_status": text_fields(s.retweeted_status)} for s in fan.user_timeline(tweet_mode="extended") if hasattr(s, "retweeted_status")
])

members = ["tw_reads_m1", "tw_reads_m2", "tw_reads_m3", "tw_reads_m4", "tw_reads_m5"]
public = owner.create_list(name="customers", mode="public")
private = owner.create_list(name="vip", mode="private")
for name in members:
    owner.add_list_member(list_id=public.id, screen_name=name)
owner.add_list_member(list_id=private.id, screen_name=members[0])
report("get_list_members pages", lambda: pages(tweepy.Cursor(owner.get_list_members, list_id=public.id, count=2)))
report("get_list_members cursors", lambda: [
    [user.screen_name for user in users] + [list(cursors)]
    for users, cursors in (owner.get_list_members(list_id=public.id, count=2, cursor=cursor) for cursor in (-1, 2, 4, -4))
])
report("app get_list_members by slug", lambda: pages(tweepy.Cursor(app.get_list_members, slug="customers", owner_screen_name="tw_reads_desk", count=3)))
report("app get_list_members private", lambda: refused(lambda: app.get_list_members(list_id=private.id)))
report("owner get_list_members private", lambda: [user.screen_name for user in owner.get_list_members(list_id=private.id)])
sys.exit(1 if failures[0] else 0)
