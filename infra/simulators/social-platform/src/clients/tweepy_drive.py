"""Drives the social platform simulator with tweepy (Debian's python3-tweepy), unchanged.

tweepy calls https://api.twitter.com as always; the connections are sent to the simulator
(what a hosts-file entry would do) and the simulator's test certificate is trusted through
REQUESTS_CA_BUNDLE. Prints one JSON line per call: {"call", "ok", "detail"}; exits 0 when every
call worked, 1 otherwise.

Usage: SIMULATOR_PORT=<port> REQUESTS_CA_BUNDLE=<cert file> KEY=<consumer key> SECRET=<secret> python3 tweepy_drive.py
"""
import sys
from urllib.parse import parse_qs, urlparse

import requests
import tweepy

from tweepy_common import CLIENT_ID, CLIENT_SECRET, KEY, SECRET, connect, failures, report

api = report("oauth1 connect", lambda: connect("@tweepy_agent"))
other = connect("@tweepy_customer")
me = report("verify_credentials", lambda: api.verify_credentials().id_str)
customer = other.verify_credentials().id_str
report("get_user", lambda: api.get_user(user_id=customer).screen_name)
report("get_settings", lambda: api.get_settings()["language"])
report("set_settings", lambda: api.set_settings(lang="fr")["language"])
report("update_profile", lambda: api.update_profile(name="Acme Help").name)
status = report("update_status", lambda: api.update_status("hello from tweepy"))
report("home_timeline", lambda: [s.id_str for s in api.home_timeline(count=5)])
report("user_timeline", lambda: [s.id_str for s in api.user_timeline(user_id=me)])
reply = report("reply", lambda: api.update_status("a reply", in_reply_to_status_id=status.id_str))
report("destroy_status", lambda: api.destroy_status(reply.id_str).id_str)
theirs = other.update_status("like me")
report("create_favorite", lambda: api.create_favorite(theirs.id_str).favorited)
report("destroy_favorite", lambda: api.destroy_favorite(theirs.id_str).favorited)
report("retweet", lambda: api.retweet(theirs.id_str).retweeted_status.id_str)
report("unretweet", lambda: api.unretweet(theirs.id_str).id_str)
report("create_friendship", lambda: api.create_friendship(user_id=customer).id_str)
report("get_friend_ids", lambda: api.get_friend_ids())
report("get_friends", lambda: [u.id_str for u in api.get_friends()])
report("destroy_friendship", lambda: api.destroy_friendship(user_id=customer).id_str)
report("create_mute", lambda: api.create_mute(user_id=customer).id_str)
report("destroy_mute", lambda: api.destroy_mute(user_id=customer).id_str)
report("create_block", lambda: api.create_block(user_id=customer).id_str)
report("destroy_block", lambda: api.destroy_block(user_id=customer).id_str)
report("report_spam", lambda: api.report_spam(user_id=customer).id_str)
created = report("create_list", lambda: api.create_list(name="vip", mode="private"))
report("update_list", lambda: api.update_list(list_id=created.id, description="top customers").description)
report("get_lists", lambda: [l.id_str for l in api.get_lists()])
report("add_list_member", lambda: api.add_list_member(list_id=created.id, user_id=customer).id_str)
report("remove_list_member", lambda: api.remove_list_member(list_id=created.id, user_id=customer).id_str)
report("list_timeline", lambda: [s.id_str for s in api.list_timeline(list_id=created.id)])
report("get_list_subscriptions", lambda: [l.id_str for l in api.get_list_subscriptions()])
report("destroy_list", lambda: api.destroy_list(list_id=created.id).id_str)
sent = report("send_direct_message", lambda: api.send_direct_message(customer, "how can we help?"))
report("get_direct_message", lambda: api.get_direct_message(sent.id).id)
report("get_direct_messages", lambda: [m.id for m in api.get_direct_messages()])
report("delete_direct_message", lambda: api.delete_direct_message(sent.id) or "deleted")
report("search_tweets", lambda: [s.id_str for s in api.search_tweets(q="hello")])
app_only = tweepy.API(tweepy.OAuth2AppHandler(KEY, SECRET))
app_client = tweepy.Client(bearer_token=app_only.auth._bearer_token)
report("oauth2 app-only bearer token", lambda: app_client.request("GET", "/2/account_activity/subscriptions/count").json()["data"]["subscriptions_count_all"])


def connect_oauth2(user):
    """OAuth 2.0 with PKCE: the consent page, then the code exchange; returns the token."""
    handler = tweepy.OAuth2UserHandler(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, redirect_uri="http://127.0.0.1:9/connected",
                                       scope=["tweet.read", "tweet.write", "users.read", "like.write", "follows.write", "dm.read", "dm.write", "offline.access"])
    url = handler.get_authorization_url()
    query = {k: v[0] for k, v in parse_qs(urlparse(url).query).items()}
    page = requests.get(url, timeout=10)
    page.raise_for_status()
    answer = requests.post("https://twitter.com/i/oauth2/authorize", data={**query, "user": user, "decision": "approve"}, allow_redirects=False, timeout=10)
    return handler.fetch_token(answer.headers["location"])


token = report("oauth2 connect", lambda: connect_oauth2("@tweepy_v2"))
v2 = tweepy.Client(token["access_token"])
other_v2 = tweepy.Client(connect_oauth2("@tweepy_v2_cust")["access_token"])
me_v2 = report("v2 get_me", lambda: v2.get_me(user_auth=False).data.id)
customer_v2 = other_v2.get_me(user_auth=False).data.id
post_v2 = report("v2 create_tweet", lambda: v2.create_tweet(text="hello from tweepy v2", user_auth=False).data["id"])
theirs_v2 = other_v2.create_tweet(text="my order is late", user_auth=False).data["id"]
report("v2 like", lambda: v2.like(theirs_v2, user_auth=False).data["liked"])
report("v2 unlike", lambda: v2.unlike(theirs_v2, user_auth=False).data["liked"] is False)
report("v2 retweet", lambda: v2.retweet(theirs_v2, user_auth=False).data["retweeted"])
report("v2 unretweet", lambda: v2.unretweet(theirs_v2, user_auth=False).data["retweeted"] is False)
report("v2 follow_user", lambda: v2.follow_user(customer_v2, user_auth=False).data["following"])
report("v2 unfollow_user", lambda: v2.unfollow_user(customer_v2, user_auth=False).data["following"] is False)
report("v2 create_direct_message", lambda: v2.create_direct_message(participant_id=customer_v2, text="hello over v2", user_auth=False).data["dm_event_id"])
report("v2 get_direct_message_events", lambda: [e.text for e in v2.get_direct_message_events(user_auth=False).data])
report("v2 delete_tweet", lambda: v2.delete_tweet(post_v2, user_auth=False).data["deleted"])
sys.exit(1 if failures[0] else 0)
