"""What the tweepy drivers share: tweepy's connections sent to the simulator, the app's
credentials, a report line per call, and an account connected through the authorize page.

tweepy calls https://api.twitter.com as always; the connections are sent to the simulator
(what a hosts-file entry would do) and the simulator's test certificate is trusted through
REQUESTS_CA_BUNDLE.
"""
import json
import os
from urllib.parse import parse_qs, urlparse

import requests
import tweepy
import urllib3.util.connection as connection

PLATFORM_HOSTS = {"api.twitter.com", "upload.twitter.com", "twitter.com"}
SIMULATOR_PORT = int(os.environ["SIMULATOR_PORT"])
_create_connection = connection.create_connection


def _to_simulator(address, *args, **kwargs):
    host, port = address
    return _create_connection(("127.0.0.1", SIMULATOR_PORT) if host in PLATFORM_HOSTS else (host, port), *args, **kwargs)


connection.create_connection = _to_simulator
KEY, SECRET = os.environ["KEY"], os.environ["SECRET"]
CLIENT_ID, CLIENT_SECRET = os.environ["CLIENT_ID"], os.environ["CLIENT_SECRET"]
# The redirect goes to a local http address; oauthlib insists on https unless told otherwise.
os.environ["OAUTHLIB_INSECURE_TRANSPORT"] = "1"
failures = [0]


def report(call, fn):
    try:
        result = fn()
        print(json.dumps({"call": call, "ok": True, "detail": result}, default=str), flush=True)
        return result
    except Exception as error:  # every failure is reported, the run goes on
        failures[0] += 1
        print(json.dumps({"call": call, "ok": False, "detail": str(error)}), flush=True)
        return None


def approve(authorization_url, user):
    """What a person does on the authorize page: approve as `user`; the verifier comes back on the callback."""
    token = parse_qs(urlparse(authorization_url).query)["oauth_token"][0]
    page = requests.get(authorization_url, timeout=10)
    page.raise_for_status()
    answer = requests.post("https://api.twitter.com/oauth/authorize", data={"oauth_token": token, "user": user, "decision": "approve"}, allow_redirects=False, timeout=10)
    return parse_qs(urlparse(answer.headers["location"]).query)["oauth_verifier"][0]


def connect(user):
    handler = tweepy.OAuth1UserHandler(KEY, SECRET, callback="http://127.0.0.1:9/connected")
    url = handler.get_authorization_url()
    handler.get_access_token(approve(url, user))
    return tweepy.API(handler)


